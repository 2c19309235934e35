// Tests that start real services get 30 s each unless they set their own (jest.config.js says why).
jest.setTimeout(30_000);
