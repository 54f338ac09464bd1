/// `--call 'METHOD URL [BODY]'` (README "Modern client profile"): the one request made with the
/// token once it is had — from a flow, a refresh or the cache — whose
/// answer's body is the run's output (Flow/ResourceCall.swift). Its shape
/// is a `--step`'s: METHOD, URL, and a BODY that is JSON when it starts
/// with `{`, else a form.
package struct CallSettings: Equatable, Sendable {
    package var request: Step?

    package init() {}
}
