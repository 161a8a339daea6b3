export const m07 = 7;
