export const m31 = 31;
