export const m22 = 22;
