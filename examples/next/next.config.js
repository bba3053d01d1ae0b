// libsql (the SQLite ledger's driver) loads a native binary: Next leaves it to Node rather than bundling it.
export default { serverExternalPackages: ['libsql'] };
