/// How the `@FILE` convention applies to a value.
enum FileResolution {
    /// The whole value may be `@FILE`.
    case whole
    /// The value is itself a path (`--users FILE`), or the parser resolves
    /// parts of it (`NAME=@FILE`).
    case byParser
}
