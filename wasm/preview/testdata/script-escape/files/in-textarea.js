throw new Error("must not be inlined");
