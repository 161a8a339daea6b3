export const m = 1;
