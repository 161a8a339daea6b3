import { a } from './a.js';
export * from "./c.js";
export const b = 'b';
