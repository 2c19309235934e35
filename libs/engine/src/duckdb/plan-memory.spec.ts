import { PlanMemory } from './plan-memory';

describe('PlanMemory', () => {
  it('keeps the most recently validated ids within its capacity', () => {
    const memory = new PlanMemory(2);
    memory.remember('a', 'SELECT 1', 'plan a');
    memory.remember('b', 'SELECT 2', 'plan b');
    memory.remember('a', 'SELECT 1', 'plan a2');
    memory.remember('c', 'SELECT 3', 'plan c');
    expect(memory.get('b')).toBeUndefined();
    expect(memory.get('a')).toEqual({ sql: 'SELECT 1', plan: 'plan a2' });
    expect(memory.get('c')?.plan).toBe('plan c');
    memory.forget('a');
    expect(memory.get('a')).toBeUndefined();
  });
});
