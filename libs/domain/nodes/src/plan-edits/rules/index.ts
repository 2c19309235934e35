import type { EditRule } from '../edit';
import { addCondition } from './add-condition';
import { addGrouping } from './add-grouping';
import { dropColumn } from './drop-column';
import { replaceThreshold } from './replace-threshold';
import { setOrder } from './set-order';

/**
 * The edit rules, tried in this order on each clause. Order matters where phrasings overlap:
 * sorting before grouping (`sort by X` has the grouping cue `by`); a limit (`top 5`) and dropping
 * before thresholds (both may carry a number or a column); a threshold before a new condition (a
 * comparison on a column already compared replaces it rather than standing beside it).
 */
export const EDIT_RULES: readonly EditRule[] = [setOrder, addGrouping, dropColumn, replaceThreshold, addCondition];
