import './instrument';
import 'reflect-metadata';
import { runWorkerApp } from '@nl2p/workflow-runtime';
import { ExplainerModule } from './explainer.module';

void runWorkerApp('explainer', (config) => ExplainerModule.forRoot(config));
