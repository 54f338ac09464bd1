import Core
import HTTP

/// Turns the token stream into forms, keeping a browser's notion of which
/// form owns which control: the open `<form>` (the parser's "form element
/// pointer"), or the form named by a control's `form="id"` attribute.
package struct HTMLFormBuilder {
    /// The only tags whose attributes matter here; the tokenizer drops the rest.
    @Sendable static func needsAttributes(_ name: String) -> Bool {
        switch name {
        case "form", "input", "button", "select", "option", "optgroup", "textarea", "fieldset": true
        default: false
        }
    }
    /// Bounds so a hostile page costs memory in proportion to what we keep.
    static let maxForms = 1_000
    static let maxFields = 10_000
    static let maxLabel = 200
    static let maxOptionText = 4_096

    private enum Owner { case form(Int), id(String), none }
    /// A field and where its control started, to restore document order
    /// once `form="id"` controls from elsewhere in the page join a form.
    private struct Placed { var position: Int; var field: HTMLField }
    private struct OpenButton { var field: HTMLField; var owner: Owner; var position: Int; var text: LineText; var fallback: String }
    private struct OpenOption { var value: String?; var selected: Bool; var disabled: Bool; var text: LineText }
    private struct OpenSelect {
        var name: String, multiple: Bool, disabled: Bool, listBox: Bool
        var owner: Owner, position: Int
        var options: [OpenOption] = [], option: OpenOption? = nil, groupDisabled = false
    }
    private struct OpenTextarea { var field: HTMLField; var owner: Owner; var position: Int; var content = "" }

    /// Start offsets of the `<form>` tags never closed; worked out (by a
    /// second pass) only when a `<form>` shows up while another is open.
    private let findUnclosedForms: () -> Set<Int>
    private var unclosedForms: Set<Int>?
    private var forms: [HTMLForm] = []
    private var formStarts: [Int] = []
    private var placed: [[Placed]] = []
    private var byFormAttribute: [(id: String, placed: Placed)] = []
    private var current: Int?
    private var fieldsets: [Bool] = []
    /// Inside `<template>` nothing belongs to the page's forms.
    private var templateDepth = 0
    private var position = 0
    private var button: OpenButton?
    private var select: OpenSelect?
    private var textarea: OpenTextarea?

    init(unclosedForms: @escaping () -> Set<Int>) {
        self.findUnclosedForms = unclosedForms
    }

    mutating func consume(_ token: HTMLToken, _ tokenizer: HTMLTokenizer) {
        switch token {
        case .startTag(let tag): start(tag)
        case .endTag(let name): end(name)
        case .text(let range):
            if templateDepth > 0 {
                return
            } else if textarea != nil {
                textarea?.content += tokenizer.text(range)
            } else if select?.option.map({ !$0.text.isFull }) == true {
                select?.option?.text.append(tokenizer.text(range))
            } else if button.map({ !$0.text.isFull }) == true {
                button?.text.append(tokenizer.text(range))
            }
        }
    }

    private mutating func start(_ tag: HTMLTag) {
        position += 1
        if tag.name == "template" { templateDepth += 1 }
        guard templateDepth == 0 else { return }
        switch tag.name {
        case "form":
            if let open = current {
                if unclosedForms == nil { unclosedForms = findUnclosedForms() }
                guard formStarts.indices.contains(open), unclosedForms?.contains(formStarts[open]) == true else {
                    return  // a nested <form>: browsers ignore its start tag
                }
            }
            current = nil
            guard forms.count < Self.maxForms else { return }
            forms.append(HTMLForm(action: tag["action"], method: Self.method(tag["method"]) ?? .get, id: tag["id"], name: tag["name"]))
            formStarts.append(tag.offset)
            placed.append([])
            current = forms.count - 1
        case "input":
            finishSelect()  // an <input> inside a <select> closes it
            place(input(tag), owner(tag), position)
        case "button":
            finishButton()
            finishSelect()
            let type = tag["type"].map { HTMLWhitespace.trim($0).lowercased() }
            let kind: HTMLField.Kind = type == "button" ? .button : type == "reset" ? .reset : .submit
            var field = HTMLField(kind: kind, name: tag["name"] ?? "", value: tag["value"] ?? "", disabled: isDisabled(tag))
            if kind == .submit { (field.formAction, field.formMethod) = (tag["formaction"], Self.method(tag["formmethod"])) }
            button = OpenButton(field: field, owner: owner(tag), position: position,
                                text: LineText(limit: Self.maxLabel, space: .ascii), fallback: tag["aria-label"] ?? tag["title"] ?? "")
        case "select":
            // A <select> inside a <select> acts as its end tag.
            guard select == nil else { return finishSelect() }
            let size = tag["size"].flatMap { Int(HTMLWhitespace.trim($0)) } ?? 0
            select = OpenSelect(name: tag["name"] ?? "", multiple: tag.has("multiple"), disabled: isDisabled(tag),
                                listBox: size > 1, owner: owner(tag), position: position)
        case "option":
            guard select != nil else { return }  // a <datalist> option is no control
            finishOption()
            let disabled = tag.has("disabled") || select?.groupDisabled == true
            select?.option = OpenOption(value: tag["value"], selected: tag.has("selected"), disabled: disabled,
                                        text: LineText(limit: Self.maxOptionText, space: .ascii))
        case "optgroup":
            finishOption()
            select?.groupDisabled = tag.has("disabled")
        case "textarea":
            finishSelect()
            let field = HTMLField(kind: .textarea, name: tag["name"] ?? "", disabled: isDisabled(tag))
            textarea = OpenTextarea(field: field, owner: owner(tag), position: position)
        case "fieldset":
            if fieldsets.count < Self.maxFields { fieldsets.append(tag.has("disabled") || fieldsets.last == true) }
        default:
            break
        }
    }

    private mutating func end(_ name: String) {
        if name == "template" { templateDepth = max(0, templateDepth - 1) }
        guard templateDepth == 0 else { return }
        switch name {
        case "form": current = nil
        case "button": finishButton()
        case "select": finishSelect()
        case "option": finishOption()
        case "optgroup":
            finishOption()
            select?.groupDisabled = false
        case "textarea": finishTextarea()
        case "fieldset": _ = fieldsets.popLast()
        default: break
        }
    }

    /// The forms with their fields in document order.
    mutating func finish() -> [HTMLForm] {
        finishButton()
        finishSelect()
        finishTextarea()
        var firstWithID: [String: Int] = [:]
        for (index, form) in forms.enumerated() {
            // form="" names no form, so an empty id is never looked up.
            if let id = form.id, !id.isEmpty, firstWithID[id] == nil { firstWithID[id] = index }
        }
        for (id, field) in byFormAttribute {
            if let index = firstWithID[id], placed[index].count < Self.maxFields { placed[index].append(field) }
        }
        for index in forms.indices {
            let ordered = placed[index].enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
            forms[index].fields = Self.oneCheckedPerRadioGroup(ordered.map(\.element.field))
        }
        return forms
    }

    // MARK: - Controls

    private static let otherInputTypes: Set<String> = [
        "search", "tel", "url", "number", "range", "color", "date", "datetime-local", "month", "week", "time",
    ]

    private func input(_ tag: HTMLTag) -> HTMLField {
        var kind = HTMLField.Kind.text  // no type, or one browsers do not know
        if let type = tag["type"].map({ HTMLWhitespace.trim($0).lowercased() }) {
            if let known = HTMLField.Kind(rawValue: type), ![.select, .textarea, .other].contains(known) {
                kind = known
            } else if Self.otherInputTypes.contains(type) {
                kind = .other
            }
        }
        let toggles = kind == .checkbox || kind == .radio
        let label: String
        switch kind {
        case .submit, .reset, .button: label = tag["value"] ?? ""
        case .image: label = tag["alt"] ?? ""
        default: label = ""
        }
        let oneTimeCode = tag["autocomplete"].map { $0.lowercased().split(separator: " ").contains("one-time-code") } ?? false
        let submits = kind == .submit || kind == .image
        return HTMLField(kind: kind, name: tag["name"] ?? "", value: tag["value"] ?? (toggles ? "on" : ""),
                         checked: toggles ? tag.has("checked") : true, disabled: isDisabled(tag), label: label, oneTimeCode: oneTimeCode,
                         formAction: submits ? tag["formaction"] : nil, formMethod: submits ? Self.method(tag["formmethod"]) : nil)
    }

    /// A `method` or `formmethod` attribute (HTML §4.10.18.6): POST, else
    /// GET (`dialog` and unknown values included); nil when absent.
    private static func method(_ attribute: String?) -> HTTPMethod? {
        attribute.map { HTMLWhitespace.trim($0).uppercased() == "POST" ? .post : .get }
    }

    private mutating func finishButton() {
        guard var open = button else { return }
        button = nil
        open.field.label = open.text.isEmpty ? Self.collapsed(open.fallback) : open.text.result
        place(open.field, open.owner, open.position)
    }

    private mutating func finishOption() {
        guard let option = select?.option else { return }
        select?.option = nil
        if select?.options.count ?? Self.maxFields < Self.maxFields { select?.options.append(option) }
    }

    /// The select's successful value(s) (HTML §4.10.7 selectedness): the
    /// last `selected` option, else the first enabled one; a multiple select
    /// gives one field per selected option.
    private mutating func finishSelect() {
        finishOption()
        guard let open = select else { return }
        select = nil
        let options = open.options
        func field(_ index: Int?) -> HTMLField {
            let option = index.map { options[$0] }
            let value = option.map { $0.value ?? $0.text.result } ?? ""
            return HTMLField(kind: .select, name: open.name, value: value,
                             checked: option.map { !$0.disabled } ?? false, disabled: open.disabled)
        }
        if open.multiple {
            let chosen = options.indices.filter { options[$0].selected && !options[$0].disabled }
            if chosen.isEmpty { return place(field(nil), open.owner, open.position) }
            for index in chosen { place(field(index), open.owner, open.position) }
            return
        }
        var chosen = options.lastIndex { $0.selected }
        if chosen == nil, !open.listBox { chosen = options.firstIndex { !$0.disabled } }
        place(field(chosen), open.owner, open.position)
    }

    private mutating func finishTextarea() {
        guard var open = textarea else { return }
        textarea = nil
        // The parser drops one newline right after <textarea>.
        if let first = open.content.first, first == "\n" || first == "\r\n" || first == "\r" {
            open.content.removeFirst()
        }
        open.field.value = open.content
        place(open.field, open.owner, open.position)
    }

    // MARK: - Ownership

    private func owner(_ tag: HTMLTag) -> Owner {
        if let id = tag["form"] { return .id(id) }  // wins over the enclosing form, as in browsers
        return current.map { .form($0) } ?? .none
    }

    private func isDisabled(_ tag: HTMLTag) -> Bool {
        tag.has("disabled") || fieldsets.last == true
    }

    private mutating func place(_ field: HTMLField, _ owner: Owner, _ position: Int) {
        switch owner {
        case .form(let index):
            if placed.indices.contains(index), placed[index].count < Self.maxFields {
                placed[index].append(Placed(position: position, field: field))
            }
        case .id(let id):
            if byFormAttribute.count < Self.maxFields {
                byFormAttribute.append((id, Placed(position: position, field: field)))
            }
        case .none:
            break
        }
    }

    /// Checking a radio unchecks the others of its group, so of several
    /// `checked` radios with one name only the last stays checked.
    private static func oneCheckedPerRadioGroup(_ fields: [HTMLField]) -> [HTMLField] {
        var fields = fields
        var seen: Set<String> = []
        for index in fields.indices.reversed() where fields[index].kind == .radio && fields[index].checked && !fields[index].name.isEmpty {
            if !seen.insert(fields[index].name).inserted { fields[index].checked = false }
        }
        return fields
    }

    private static func collapsed(_ text: String) -> String {
        var collapsed = LineText(limit: maxLabel, space: .ascii)
        collapsed.append(text)
        return collapsed.result
    }
}
