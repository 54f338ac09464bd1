import Core

/// A page's `<base href>` (HTML §4.2.3): the first `base` element with an
/// `href` sets the URL its relative URLs, form actions included, resolve
/// against (FormTarget.swift). A `<base>` inside a `<template>` is no
/// element of the document.
enum DocumentBase {
    static func href(in html: String) -> String? {
        var tokenizer = HTMLTokenizer(html, keepAttributes: { $0 == "base" })
        var templateDepth = 0
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag) where tag.name == "template": templateDepth += 1
            case .endTag("template"): templateDepth = max(0, templateDepth - 1)
            case .startTag(let tag) where tag.name == "base" && templateDepth == 0:
                if let href = tag["href"] { return href }
            default: continue
            }
        }
        return nil
    }
}
