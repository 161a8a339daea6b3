export const m23 = 23;
