/**
 * The SQL expression of an address's hash: SHA-256 of the lower-cased address. Suppressions are stored and
 * matched by it (unique per company), so an erased customer's entry keeps no address in clear.
 */
export function addressHashSql(email: string): string {
  return `sha256(convert_to(lower(${email}), 'UTF8'))`;
}
