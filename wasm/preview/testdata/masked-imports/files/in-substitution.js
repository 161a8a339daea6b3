export const sub = 1;
