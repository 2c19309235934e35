import './instrument';
import 'reflect-metadata';
import { runWorkerApp } from '@nl2p/workflow-runtime';
import { SqlDrafterModule } from './sql-drafter.module';

void runWorkerApp('sql-drafter', (config) => SqlDrafterModule.forRoot(config));
