export const m05 = 5;
