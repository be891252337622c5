#if Macros
    internal import SwiftDiagnostics
    internal import SwiftSyntax

    /// One `@ConfigurationKey` declaration, read and checked: what both the key macro (which writes the key) and the
    /// scope macro (which lists the keys) work from.
    struct KeyDeclaration {
        /// The property `service.<propertyName>` reads; also the name of the `static let` holding the default.
        let propertyName: String
        /// The access level of the declaration, given to everything generated for it.
        let access: AccessLevel
        /// The wire name, as the string literal says it.
        let wireName: String
        /// The string literal of the wire name, where diagnostics about it point.
        let wireNameNode: ExprSyntax
        /// The declaration's `///` comment, line by line.
        let documentation: [String]
        /// The optional arguments, by label (`summary`, `title`, `boolEncoding`, `pattern`, `range`, `step`,
        /// `control`, `owner`, `ticket`, `removeBy`).
        let arguments: [String: ExprSyntax]

        /// The key type the macro generates: `checkoutMaxCartItems` → `CheckoutMaxCartItemsKey`.
        var keyTypeName: String { Self.keyTypeName(for: propertyName) }

        /// The key type's name for a property.
        static func keyTypeName(for property: String) -> String { property.upperCamelCased + "Key" }

        /// The summary the doc comment gives: its first paragraph on one line; `nil` without a doc comment.
        var documentedSummary: String? {
            let paragraph = documentation.prefix { !$0.trimmingSpaces.isEmpty }.map { String($0.trimmingSpaces) }
            return paragraph.isEmpty ? nil : paragraph.joined(separator: " ")
        }

        /// The labels the key macro's overloads accept after the wire name.
        static let argumentLabels: Set<String> = [
            "summary", "title", "boolEncoding", "pattern", "range", "step", "control", "owner", "ticket", "removeBy",
        ]

        /// The largest wire name the override store keeps, in bytes of UTF-8 (`OverrideStoreLimits.maximumKeySize`).
        static let maximumNameSize = 1 << 10

        /// Reads `declaration` under `attribute`: the key when the declaration has the shape of one (a single
        /// `static let name = default`), and every problem found, with fix-its. A key comes back with problems
        /// when generating it still gives valid code (its wire name, its default), so the compiler reports the
        /// problem at the line and nothing after it.
        static func read(
            _ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax
        ) -> (key: KeyDeclaration?, problems: [Diagnostic]) {
            var problems: [Diagnostic] = []
            func problem(
                _ node: some SyntaxProtocol, _ id: String, _ message: String, fixIts: [FixIt] = [], notes: [Note] = []
            ) {
                problems.append(
                    Diagnostic(node: node, message: MacroDiagnostic(id, message), notes: notes, fixIts: fixIts))
            }

            guard let variable = declaration.as(VariableDeclSyntax.self) else {
                problem(
                    attribute, "not-a-property",
                    "@ConfigurationKey declares a key on a 'static let' holding its default, such as "
                        + "'@ConfigurationKey(\"checkout.cart.max_items\") static let checkoutMaxCartItems = 50'")
                return (nil, problems)
            }
            guard variable.bindings.count == 1, let binding = variable.bindings.first else {
                problem(
                    variable.bindings, "one-key-per-declaration",
                    "declare one key per 'static let': each key has its own wire name")
                return (nil, problems)
            }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                problem(binding.pattern, "not-an-identifier", "a key is one named 'static let', not a pattern")
                return (nil, problems)
            }
            let name = identifier.identifier.text
            let isStatic = variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) }

            if let accessors = binding.accessorBlock {
                var fixIts: [FixIt] = []
                if let value = Self.singleExpression(of: accessors) {
                    fixIts.append(
                        FixIt(
                            message: MacroFixIt("store-default", "store the value as 'static let \(name) = …'"),
                            changes: [
                                .replace(
                                    oldNode: Syntax(variable),
                                    newNode: Syntax(Self.staticLet(variable, binding: binding, value: value)))
                            ]))
                }
                problem(
                    binding, "computed-property",
                    "a key's default is a stored value, not a computed property: write 'static let \(name) = "
                        + "<default>'",
                    fixIts: fixIts)
                return (nil, problems)
            }
            guard let initializer = binding.initializer else {
                let placeholder = ExprSyntax(EditorPlaceholderExprSyntax(placeholder: .identifier("<#default#>")))
                problem(
                    binding, "no-default",
                    "a key needs its default value: 'static let \(name) = <default>'",
                    fixIts: [
                        FixIt(
                            message: MacroFixIt("add-default", "add a default value"),
                            changes: [
                                .replace(
                                    oldNode: Syntax(variable),
                                    newNode: Syntax(Self.staticLet(variable, binding: binding, value: placeholder)))
                            ])
                    ])
                return (nil, problems)
            }
            if !isStatic || variable.bindingSpecifier.tokenKind != .keyword(.let) {
                let fixIt = FixIt(
                    message: MacroFixIt("make-static-let", "make it 'static let'"),
                    changes: [
                        .replace(
                            oldNode: Syntax(variable),
                            newNode: Syntax(Self.staticLet(variable, binding: binding, value: initializer.value)))
                    ])
                if isStatic {
                    problem(
                        variable.bindingSpecifier, "static-var",
                        "a key's default cannot change: declare it 'static let', not 'static var'", fixIts: [fixIt])
                } else {
                    problem(
                        variable.bindingSpecifier, "instance-property",
                        "a key is declared 'static let \(name) = <default>': the macro adds the property "
                            + "'\(name)' that 'service.\(name)' reads",
                        fixIts: [fixIt])
                }
                return (nil, problems)
            }

            // The wire name: the first argument, a plain string literal.
            let arguments = attribute.labeledArguments
            guard let first = arguments.first, first.label == nil else {
                problem(
                    attribute, "no-wire-name",
                    "a key needs its wire name: @ConfigurationKey(\"checkout.cart.max_items\")")
                return (nil, problems)
            }
            let wireName: String
            if let literal = first.expression.as(StringLiteralExprSyntax.self),
                let value = literal.representedLiteralValue
            {
                wireName = value
                if let message = Self.wireNameProblem(value) {
                    var fixIts: [FixIt] = []
                    let trimmed = value.trimmingCharacters
                    if trimmed != value, !trimmed.isEmpty, Self.wireNameProblem(trimmed) == nil {
                        fixIts.append(
                            FixIt(
                                message: MacroFixIt("trim-wire-name", "remove the spaces around the wire name"),
                                changes: [
                                    .replace(
                                        oldNode: Syntax(first.expression),
                                        newNode: Syntax(
                                            StringLiteralExprSyntax(content: trimmed).with(
                                                \.trailingTrivia, first.expression.trailingTrivia)))
                                ]))
                    }
                    problem(first.expression, "invalid-wire-name", message, fixIts: fixIts)
                }
            } else {
                problem(
                    first.expression, "wire-name-not-literal",
                    "the wire name must be a string literal without interpolation, so that the macro can check it "
                        + "and compare it with the scope's other keys")
                return (nil, problems)
            }

            var options: [String: ExprSyntax] = [:]
            for argument in arguments.dropFirst() {
                guard let label = argument.label?.text, Self.argumentLabels.contains(label) else { continue }
                if argument.expression.is(NilLiteralExprSyntax.self) { continue }
                options[label] = argument.expression
            }

            let key = KeyDeclaration(
                propertyName: name,
                access: AccessLevel(variable.modifiers),
                wireName: wireName,
                wireNameNode: first.expression,
                documentation: variable.documentationLines,
                arguments: options)
            problems += key.valueProblems(
                defaultValue: initializer.value, type: binding.typeAnnotation?.type, attribute: attribute)
            return (key, problems)
        }

        /// Why `name` cannot be a wire name, or `nil`.
        static func wireNameProblem(_ name: String) -> String? {
            if name.isEmpty { return "the wire name is empty" }
            if let scalar = name.unicodeScalars.first(where: { $0.properties.isWhitespace || Self.isControl($0) }) {
                let what =
                    scalar == " "
                    ? "a space"
                    : "the character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
                return "the wire name \(name.swiftLiteral) contains \(what): a wire name has no spaces or control "
                    + "characters"
            }
            let size = name.utf8.count
            if size > maximumNameSize {
                return "the wire name is \(size) bytes long; the override store keeps names of at most "
                    + "\(maximumNameSize) bytes"
            }
            return nil
        }

        private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }

        /// The problems the macro can see in the default and the optional arguments: a default the key's codec
        /// cannot carry, an argument that does not fit the value type, bounds that cannot hold.
        private func valueProblems(
            defaultValue: ExprSyntax, type: TypeSyntax?, attribute: AttributeSyntax
        ) -> [Diagnostic] {
            var problems: [Diagnostic] = []
            let kind = ValueKind(type: type, defaultValue: defaultValue)

            if let shown = NumberLiteral.nonFinite(defaultValue) {
                problems.append(
                    Diagnostic(
                        node: defaultValue,
                        message: MacroDiagnostic(
                            "default-not-encodable",
                            "the default '\(shown)' has no wire form: a number travels as a finite decimal, so the "
                                + "catalog would refuse this key")))
            }

            if let encoding = arguments["boolEncoding"] {
                if kind != .bool && kind != .unknown {
                    problems.append(
                        Diagnostic(
                            node: encoding,
                            message: MacroDiagnostic(
                                "bool-encoding-not-bool",
                                "boolEncoding applies only to Bool keys; this key's default is \(kind.article)"),
                            fixIts: [
                                FixIt(
                                    message: MacroFixIt("remove-bool-encoding", "remove boolEncoding"),
                                    changes: [Self.removing("boolEncoding", from: attribute)])
                            ]))
                }
                if let strings = Self.boolStrings(encoding), strings.true == strings.false {
                    problems.append(
                        Diagnostic(
                            node: encoding,
                            message: MacroDiagnostic(
                                "bool-encoding-same-strings",
                                "this Bool encoding uses \(strings.true.swiftLiteral) for both true and false, so a "
                                    + "value could not be told apart")))
                }
            }

            if let due = arguments["removeBy"], let problem = Self.removalProblem(due) {
                problems.append(Diagnostic(node: due, message: MacroDiagnostic("remove-by-invalid", problem)))
            }

            if let range = arguments["range"] {
                if kind == .bool || kind == .string {
                    problems.append(
                        Diagnostic(
                            node: range,
                            message: MacroDiagnostic(
                                "range-not-number",
                                "range applies to number keys; this key's default is \(kind.article)")
                        ))
                }
                if let (lower, upper) = NumberLiteral.bounds(of: range) {
                    if lower.value > upper.value {
                        problems.append(
                            Diagnostic(
                                node: range,
                                message: MacroDiagnostic(
                                    "range-reversed",
                                    "the range's lower bound \(lower.text) is above its upper bound \(upper.text)")))
                    } else if let value = NumberLiteral(defaultValue),
                        value.value < lower.value || value.value > upper.value
                    {
                        problems.append(
                            Diagnostic(
                                node: defaultValue,
                                message: MacroDiagnostic(
                                    "default-outside-range",
                                    "the default \(value.text) is outside the key's range \(lower.text)...\(upper.text): "
                                        + "the catalog would refuse this key")))
                    }
                    let isFloatingPoint = lower.isFloatingPoint || upper.isFloatingPoint || kind == .floatingPoint
                    if isFloatingPoint && arguments["step"] == nil {
                        problems.append(
                            Diagnostic(
                                node: range,
                                message: MacroDiagnostic(
                                    "range-needs-step",
                                    "a floating-point range needs a step for the menu's + and -: add 'step:'"),
                                fixIts: [
                                    FixIt(
                                        message: MacroFixIt("add-step", "add a step"),
                                        changes: [Self.addingStep(after: "range", to: attribute)])
                                ]))
                    }
                }
                if let step = arguments["step"], let value = NumberLiteral(step), value.value <= 0 {
                    problems.append(
                        Diagnostic(
                            node: step,
                            message: MacroDiagnostic(
                                "step-not-positive", "the step \(value.text) must be above zero")))
                }
            }
            return problems
        }

        // MARK: - Generated code

        /// The property and the key type, as a careful person writes them by hand.
        func expansion(scopeName: String) -> [DeclSyntax] {
            let typeModifier = access.modifier
            // Inside the key type, a member without a modifier has the type's own access, which is what a
            // private or fileprivate key needs (a `private` member would be private to the key type).
            let modifier = access >= .internal ? access.modifier : ""
            let documentation =
                self.documentation.isEmpty
                ? ["`\(wireName)`, read as `service.\(propertyName)`."] : self.documentation
            let propertyDocumentation = documentation.map { $0.isEmpty ? "///" : "/// \($0)" }.joined(separator: "\n")

            var members = [
                "\(modifier)static let name = \(wireName.swiftLiteral)",
                "\(modifier)static let defaultValue = \(scopeName).\(propertyName)",
            ]
            if let summary = arguments["summary"] {
                members.append(
                    summary.is(StringLiteralExprSyntax.self)
                        ? "\(modifier)static let summary = \(summary.trimmedDescription)"
                        : "\(modifier)static let summary: String = \(summary.trimmedDescription)")
            } else if let summary = documentedSummary {
                members.append("\(modifier)static let summary = \(summary.swiftLiteral)")
            }
            if let title = arguments["title"] {
                members.append("\(modifier)static let debugTitle: String = \(title.trimmedDescription)")
            }
            if let encoding = arguments["boolEncoding"] {
                members.append(
                    "\(modifier)static let boolEncoding: ServiceConfiguration.ConfigurationBoolEncoding = "
                        + encoding.trimmedDescription)
            }
            if let pattern = arguments["pattern"] {
                members.append(
                    "\(modifier)static let valuePattern: ServiceConfiguration.ConfigurationValuePattern = "
                        + pattern.trimmedDescription)
            }
            let lifecycle = [
                ("owner", arguments["owner"]), ("ticket", arguments["ticket"]), ("removeBy", arguments["removeBy"]),
            ]
            .compactMap { label, value in value.map { "\(label): \($0.trimmedDescription)" } }
            if !lifecycle.isEmpty {
                members.append(
                    "\(modifier)static let lifecycle = ServiceConfiguration.ConfigurationKeyLifecycle("
                        + lifecycle.joined(separator: ", ") + ")")
            }
            let control: String? =
                if let control = arguments["control"] {
                    control.trimmedDescription
                } else if let range = arguments["range"] {
                    ".number(range: \(range.trimmedDescription)"
                        + (arguments["step"].map { ", step: \($0.trimmedDescription)" } ?? "") + ")"
                } else {
                    nil
                }
            if let control {
                members.append(
                    "\(modifier)static var debugControlType: ServiceConfiguration.ConfigurationDebugControlType<Value> "
                        + "{\n\(control)\n}")
            }

            return [
                DeclSyntax(
                    """
                    \(raw: propertyDocumentation)
                    \(raw: typeModifier)let \(raw: propertyName): \(raw: keyTypeName)
                    """),
                DeclSyntax(
                    """
                    /// The configuration key `\(raw: wireName)`; its default is `\(raw: scopeName).\(raw: propertyName)`.
                    \(raw: typeModifier)enum \(raw: keyTypeName): ServiceConfiguration.ConfigurationKey {
                    \(raw: members.joined(separator: "\n"))
                    }
                    """),
            ]
        }

        // MARK: - Syntax helpers

        /// The one expression a getter returns, for the fix-it that turns it into a stored default.
        private static func singleExpression(of accessors: AccessorBlockSyntax) -> ExprSyntax? {
            let body: CodeBlockItemListSyntax
            switch accessors.accessors {
            case .getter(let items):
                body = items
            case .accessors(let list):
                guard list.count == 1, let getter = list.first, getter.accessorSpecifier.tokenKind == .keyword(.get),
                    let items = getter.body?.statements
                else { return nil }
                body = items
            }
            guard body.count == 1, let item = body.first else { return nil }
            switch item.item {
            case .expr(let expression): return expression.trimmed
            case .stmt(let statement): return statement.as(ReturnStmtSyntax.self)?.expression?.trimmed
            default: return nil
            }
        }

        /// `variable` rewritten as `static let <name>: <type> = value`, keeping its attributes and modifiers.
        private static func staticLet(
            _ variable: VariableDeclSyntax, binding: PatternBindingSyntax, value: ExprSyntax
        ) -> VariableDeclSyntax {
            var modifiers = variable.modifiers
            var specifier = TokenSyntax.keyword(.let, trailingTrivia: .space)
            if !modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) {
                if modifiers.isEmpty {
                    modifiers.append(
                        DeclModifierSyntax(
                            leadingTrivia: variable.bindingSpecifier.leadingTrivia, name: .keyword(.static),
                            trailingTrivia: .space))
                } else {
                    modifiers.append(DeclModifierSyntax(name: .keyword(.static), trailingTrivia: .space))
                    specifier = specifier.with(\.leadingTrivia, variable.bindingSpecifier.leadingTrivia)
                }
            } else {
                specifier = specifier.with(\.leadingTrivia, variable.bindingSpecifier.leadingTrivia)
            }
            var newBinding = binding.with(\.accessorBlock, nil)
            if let annotation = newBinding.typeAnnotation {
                newBinding.typeAnnotation = annotation.with(\.type, annotation.type.trimmed)
            } else {
                newBinding.pattern = newBinding.pattern.trimmed
            }
            newBinding.initializer = InitializerClauseSyntax(
                equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space), value: value.trimmed)
            newBinding.trailingTrivia =
                binding.trailingTrivia.pieces.allSatisfy(\.isWhitespace) ? [] : binding.trailingTrivia
            return variable.with(\.modifiers, modifiers).with(\.bindingSpecifier, specifier).with(
                \.bindings, [newBinding])
        }

        /// A change that removes the argument labelled `label` from the attribute.
        private static func removing(_ label: String, from attribute: AttributeSyntax) -> FixIt.Change {
            var list: LabeledExprListSyntax = attribute.labeledArguments.filter { $0.label?.text != label }
            if let last = list.last, last.trailingComma != nil {
                list = LabeledExprListSyntax(list.dropLast() + [last.with(\.trailingComma, nil)])
            }
            return .replace(oldNode: Syntax(attribute.labeledArguments), newNode: Syntax(list))
        }

        /// A change that adds `step: <#step#>` after the argument labelled `label`.
        private static func addingStep(after label: String, to attribute: AttributeSyntax) -> FixIt.Change {
            var elements: [LabeledExprSyntax] = []
            for argument in attribute.labeledArguments {
                if argument.label?.text == label {
                    elements.append(argument.with(\.trailingComma, .commaToken(trailingTrivia: .space)))
                    elements.append(
                        LabeledExprSyntax(
                            label: .identifier("step"), colon: .colonToken(trailingTrivia: .space),
                            expression: EditorPlaceholderExprSyntax(placeholder: .identifier("<#step#>")),
                            trailingComma: argument.trailingComma))
                } else {
                    elements.append(argument)
                }
            }
            return .replace(
                oldNode: Syntax(attribute.labeledArguments), newNode: Syntax(LabeledExprListSyntax(elements)))
        }

        /// The two strings of a `ConfigurationBoolEncoding(true: "…", false: "…")` written with literals.
        /// Why a literal `removeBy: .date("…")` or `.version("…")` cannot be a day or a version, or `nil` (also when
        /// the macro cannot see a literal: the catalog checks it at run time).
        static func removalProblem(_ expression: ExprSyntax) -> String? {
            guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
                let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                let text = call.arguments.first?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            else { return nil }
            switch member.declName.baseName.text {
            case "date" where !isDay(text):
                return "removeBy date \(text.swiftLiteral) is not a day; write YYYY-MM-DD, for example 2027-03-31"
            case "version" where !isVersion(text):
                return "removeBy version \(text.swiftLiteral) is not a version; write numbers and dots, for example 8.4"
            default:
                return nil
            }
        }

        /// Whether `text` is a calendar day `YYYY-MM-DD` (the rule `ConfigurationRemovalDue` applies).
        static func isDay(_ text: String) -> Bool {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2,
                parts[2].count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
            else { return false }
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            return (1...lengths[month - 1]).contains(day)
        }

        /// Whether `text` is a version as `ProgramVersion` reads it: up to eight dot-separated numbers, an optional `v`.
        static func isVersion(_ text: String) -> Bool {
            let body = text.first == "v" || text.first == "V" ? text.dropFirst() : Substring(text)
            let parts = body.split(separator: ".", omittingEmptySubsequences: false)
            return !body.isEmpty && text.utf8.count <= 64 && parts.count <= 8
                && parts.allSatisfy { !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        }

        private static func boolStrings(_ expression: ExprSyntax) -> (true: String, false: String)? {
            guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 2 else { return nil }
            var strings: [String: String] = [:]
            for argument in call.arguments {
                guard let label = argument.label?.text,
                    let value = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
                else { return nil }
                strings[label] = value
            }
            guard let yes = strings["true"], let no = strings["false"] else { return nil }
            return (yes, no)
        }
    }

    /// What the macro can tell of a key's value type from its declaration: the type annotation, else the literal.
    enum ValueKind {
        case bool, integer, floatingPoint, string, unknown

        init(type: TypeSyntax?, defaultValue: ExprSyntax) {
            if let type {
                switch type.trimmedDescription {
                case "Bool", "Swift.Bool": self = .bool
                case "String", "Swift.String": self = .string
                case "Double", "Float", "Float16", "Float32", "Float64", "Float80", "CGFloat": self = .floatingPoint
                case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
                    self = .integer
                default: self = .unknown
                }
                return
            }
            var expression = defaultValue
            if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
                expression = prefix.expression
            }
            if expression.is(BooleanLiteralExprSyntax.self) {
                self = .bool
            } else if expression.is(IntegerLiteralExprSyntax.self) {
                self = .integer
            } else if expression.is(FloatLiteralExprSyntax.self) {
                self = .floatingPoint
            } else if expression.is(StringLiteralExprSyntax.self) {
                self = .string
            } else {
                self = .unknown
            }
        }

        /// The kind in a sentence: "a Bool".
        var article: String {
            switch self {
            case .bool: "a Bool"
            case .integer: "an integer"
            case .floatingPoint: "a floating-point number"
            case .string: "a String"
            case .unknown: "of another type"
            }
        }
    }

    /// A number written as a literal, possibly negative.
    struct NumberLiteral {
        let value: Double
        let text: String
        let isFloatingPoint: Bool

        init?(_ expression: ExprSyntax) {
            var sign = 1.0
            var inner = expression
            if let prefix = inner.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
                sign = -1
                inner = prefix.expression
            }
            if let integer = inner.as(IntegerLiteralExprSyntax.self), let value = integer.representedLiteralValue {
                self.value = sign * Double(value)
                isFloatingPoint = false
            } else if let float = inner.as(FloatLiteralExprSyntax.self), let value = float.representedLiteralValue {
                self.value = sign * value
                isFloatingPoint = true
            } else {
                return nil
            }
            text = expression.trimmedDescription
        }

        /// The literal bounds of `lower...upper` (folded or not).
        static func bounds(of range: ExprSyntax) -> (NumberLiteral, NumberLiteral)? {
            if let sequence = range.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                guard elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "...",
                    let lower = NumberLiteral(elements[0]), let upper = NumberLiteral(elements[2])
                else { return nil }
                return (lower, upper)
            }
            if let infix = range.as(InfixOperatorExprSyntax.self),
                infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "...",
                let lower = NumberLiteral(infix.leftOperand), let upper = NumberLiteral(infix.rightOperand)
            {
                return (lower, upper)
            }
            return nil
        }

        /// The default as written when it is a number without a wire form (`Double.nan`, `-.infinity`).
        static func nonFinite(_ expression: ExprSyntax) -> String? {
            var inner = expression
            if let prefix = inner.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
                inner = prefix.expression
            }
            guard let member = inner.as(MemberAccessExprSyntax.self),
                ["nan", "signalingNaN", "infinity"].contains(member.declName.baseName.text)
            else { return nil }
            let floatingTypes: Set<String> = [
                "Double", "Float", "Float16", "Float32", "Float64", "Float80", "CGFloat", "Swift.Double", "Swift.Float",
            ]
            guard member.base.map({ floatingTypes.contains($0.trimmedDescription) }) ?? true else { return nil }
            return expression.trimmedDescription
        }
    }

    extension String {
        /// The string without leading and trailing white space of any kind.
        var trimmingCharacters: String {
            let scalars = unicodeScalars
            guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
                let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
            else { return "" }
            return String(scalars[start...end])
        }

        /// The string left-padded with zeros to `width` characters.
        func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
    }
#endif
