import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from './client';
import { LlmScript } from './llm-script';
import { startStack, type Stack, type StackOptions } from './stack';

/** The fakes, the stack and a client of one spec file, valid inside its tests. */
export interface WorkflowStack {
  readonly manager: FakeManager;
  readonly llm: ScriptedLlm;
  readonly stack: Stack;
  readonly api: GatewayClient;
  /** A fresh script for the scripted LLM, per test. */
  readonly script: LlmScript;
}

/**
 * The usual lifecycle of a spec that drives the whole workflow: the fake Manager and the scripted
 * LLM started once, all six services in-process on them (`startStack`), both fakes reset before
 * each test, everything stopped after the file.
 */
export function useWorkflowStack(options: Omit<StackOptions, 'managerUrl' | 'llmUrl'> = {}): WorkflowStack {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let stack: Stack | undefined;
  let api: GatewayClient | undefined;
  let script: LlmScript | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only there inside a test (after beforeAll)`);
    return value;
  };

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    stack = await startStack({ managerUrl, llmUrl, ...options });
    api = new GatewayClient(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([manager.stop(), llm.stop()]);
  });
  beforeEach(() => {
    manager.reset();
    llm.reset();
    script = new LlmScript(llm);
  });

  return {
    manager,
    llm,
    get stack() {
      return ready(stack, 'the stack');
    },
    get api() {
      return ready(api, 'the gateway client');
    },
    get script() {
      return ready(script, 'the LLM script');
    },
  };
}
