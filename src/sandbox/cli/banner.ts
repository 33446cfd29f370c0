// Lines of the start banner that depend on what the operator set. The banner goes wherever the
// process's output goes (on a host, a log store that many people read), so it names a key only
// when it is one of the published development keys.

/** The banner's keys: the development keys in full; keys an operator set, by their channels only. */
export function apiKeysLine(keys: ReadonlyMap<string, string>, setByOperator: boolean): string {
  if (keys.size === 0) return 'none fixed (SANDBOX_API_KEYS=none): the keys of hsa-fsa-sandbox keys only';
  if (!setByOperator)
    return `${[...keys].map(([key, channel]) => `${key} (channel ${channel})`).join(', ')}   — send one as x-service-api-key`;
  const channels = [...new Set(keys.values())].join(', ');
  return `${keys.size} set by SANDBOX_API_KEYS (channels ${channels}), not shown   — send one as x-service-api-key`;
}
