import './instrument';
import 'reflect-metadata';
import { runWorkerApp } from '@nl2p/workflow-runtime';
import { JanitorModule } from './janitor.module';

void runWorkerApp('janitor', (config) => JanitorModule.forRoot(config));
