import { classifyIntent } from './intent';
import { demoSchema, streamSchema, taxiSchema } from './testing/fixtures';

const demo = demoSchema();
const taxi = taxiSchema();
const stream = streamSchema();

describe('classifyIntent', () => {
  it.each([
    ['What tables are there?', demo],
    ['list the streams', stream],
    ['Which tables do you have?', taxi],
    ['show me all available streams', stream],
  ])('"%s" lists streams', (text, schema) => {
    expect(classifyIntent(text, schema)).toBe('list_streams');
  });

  it.each([
    ['describe orders', demo],
    ['What are the columns of the trips table?', taxi],
    ['schema of vehicle', stream],
    ['What is in customers?', demo],
  ])('"%s" describes a table', (text, schema) => {
    expect(classifyIntent(text, schema)).toBe('describe_stream');
  });

  it.each([
    ['Average temperature per device', demo],
    ['How many orders were cancelled?', demo],
    ['fares above 20 dollars', taxi],
    ['max speed per vehicle every 5 seconds', stream],
  ])('"%s" is a query', (text, schema) => {
    expect(classifyIntent(text, schema)).toBe('nl2sql');
  });

  it.each([['Hello there'], ['Is it getting worse?'], ['describe the weather']])(
    '"%s" is left to the model',
    (text) => {
      expect(classifyIntent(text, demo)).toBeNull();
    },
  );
});
