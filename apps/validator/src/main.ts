import './instrument';
import 'reflect-metadata';
import { runWorkerApp } from '@nl2p/workflow-runtime';
import { ValidatorModule } from './validator.module';

void runWorkerApp('validator', (config) => ValidatorModule.forRoot(config));
