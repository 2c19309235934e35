import type { TargetProfile } from '../targets';
import { ManagerClient } from '../manager-client';
import { classifyEngineError } from './classify';
import { VelofluxTarget } from './veloflux-target';
import { velofluxCompiler } from './compiler';
import { reviewWhereSemantics } from './where-semantics';

export const velofluxProfile: TargetProfile = {
  kind: 'veloflux',
  label: 'veloFlux',
  sourceNoun: 'stream',
  streaming: true,
  configured: (config) => config.veloflux.configured,
  enabledBy: 'VELOFLUX_URL',
  locatedBy: 'VELOFLUX_URL',
  instance: (config) => config.veloflux.url,
  whereabouts: (config) => `the veloFlux Manager at ${config.veloflux.url}`,
  create: (config, hooks) =>
    new VelofluxTarget(
      new ManagerClient({
        baseUrl: config.veloflux.url,
        timeoutMs: config.veloflux.timeoutMs,
        retries: config.veloflux.retries,
        backoffMs: config.veloflux.backoffMs,
        onCall: hooks.onEngineCall,
      }),
      config.veloflux.dryRun.enabled
        ? { limitMs: config.veloflux.dryRun.limitMs, brokerUrl: config.veloflux.dryRun.brokerUrl }
        : undefined,
    ),
  compiler: velofluxCompiler,
  reviewAssumptions: reviewWhereSemantics,
  namesUnknownObject: (error) =>
    ['unknown_column', 'unknown_stream', 'unknown_function'].includes(classifyEngineError(error)),
  // Windows are functions (tumblingwindow('ss', 10)) and struct access is `a->b`: no extra words.
  grammarKeywords: [],
};
