// Placeholder: the dir implementation registers itself here (registerImplementation('dir', ['root'], …)).
export {}
