// The React layer's strings come from core's one message catalogue
// (core/src/messages.ts); this module only re-exports its key type.
export type { MessageKey } from '@latchkit/core'
