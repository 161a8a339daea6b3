export const m04 = 4;
