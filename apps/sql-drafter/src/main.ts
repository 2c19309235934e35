import './instrument';
import 'reflect-metadata';
import { runWorkerApp } from '@nl2p/queue';
import { SqlDrafterModule } from './sql-drafter.module';

void runWorkerApp('sql-drafter', (config) => SqlDrafterModule.forRoot(config));
