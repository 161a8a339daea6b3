export const m01 = 1;
