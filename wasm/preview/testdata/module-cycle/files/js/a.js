import { b } from './b.js';
export const a = 'a';
console.log(b);
