export const m02 = 2;
