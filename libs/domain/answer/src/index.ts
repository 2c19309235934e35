export {
  chooseAnswer,
  countsOf,
  modelSentenceProblem,
  show,
  templateAnswer,
  type AnswerInput,
  type AnswerText,
} from './answer';
export { numbersIn, unbackedNumbers } from './numbers';
