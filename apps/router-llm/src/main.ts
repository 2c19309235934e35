import './instrument';
import 'reflect-metadata';
import { runWorkerApp } from '@nl2p/workflow-runtime';
import { RouterLlmModule } from './router-llm.module';

void runWorkerApp('router-llm', (config) => RouterLlmModule.forRoot(config));
