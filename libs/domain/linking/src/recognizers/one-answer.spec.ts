import { linkCorpus, type Example } from '../testing/corpus';

describe('one-answer', () => {
  // The words read as "one answer" (a limit of 1).
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Which device has the lowest average battery level?', means: ['Which device'] },
    { say: 'On which day was the total revenue highest?', means: ['which day'] },
    { say: 'The driver with the best rating.', on: 'taxi', means: ['The'] },
    // `of` singles out a table's row (`the trip of the highest fare`), not a column's value.
    { say: 'Show the driver of the highest fare.', on: 'taxi', means: ['the'] },
    { say: 'Show the fare of the longest trip.', on: 'taxi', means: ['the longest trip'] },
    // `the`, a superlative, one thing the data holds rows of: that row.
    { say: 'the most recent order', means: ['the most recent order'] },
    { say: 'Show the name of the cheapest trip.', on: 'taxi', means: ['the cheapest trip'] },
    // A superlative that does not say what it ranks by (`largest` what?) is left to the readings.
    { say: 'the largest trip', on: 'taxi', means: [] },
    // A column after the superlative is a value (max() or an order), not one row.
    { say: 'What was the highest temperature?', means: [] },
    { say: 'Orders per customer, and which one has the most?', means: ['which one'] },
    // Plural, or a limit said: not one answer.
    { say: 'the most recent orders', means: [] },
    { say: 'Which devices have the highest temperature?', means: [] },
    { say: 'The 3 devices with the highest temperature.', means: [] },
    { say: 'Which device is in hamburg-port?', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => l.orders.filter((o) => o.limit === 1).map((o) => o.text));
});
