import QuarryJSON
import QuarrySearchContract

/// How a partial update changes a record: top-level attributes are replaced,
/// except values of the form `{"_operation": name, "value": v}`, Algolia's
/// built-in operations (Increment, Decrement, Add, Remove, AddUnique,
/// IncrementFrom, IncrementSet).
package enum PartialUpdate {
    /// The updated record, or nil when an IncrementFrom/IncrementSet condition
    /// says to ignore the whole update (or to not create a missing record).
    package static func apply(
        _ changes: JSONObject, to existing: JSONObject?, position: String
    ) throws(BackendError) -> JSONObject? {
        var record = existing ?? [:]
        for (key, change) in changes {
            guard let (operation, operand) = operation(in: change) else {
                record[key] = change
                continue
            }
            let current = record[key]
            switch operation {
            case "Increment": record[key] = try add(current ?? 0, operand, sign: 1, position: position, key: key)
            case "Decrement": record[key] = try add(current ?? 0, operand, sign: -1, position: position, key: key)
            case "Add": record[key] = .array(elements(current) + [operand])
            case "AddUnique":
                let list = elements(current)
                record[key] = .array(list.contains(operand) ? list : list + [operand])
            case "Remove": record[key] = .array(elements(current).filter { $0 != operand })
            case "IncrementFrom":
                // Compare-and-increment: applies only when the stored value is `operand` (0 when absent).
                guard let expected = operand.intValue, (current?.intValue ?? 0) == expected,
                      existing != nil || expected == 0 else { return nil }
                record[key] = JSON(expected + 1)
            case "IncrementSet":
                // Monotonic set: applies only when `operand` is above the stored value.
                guard let target = operand.intValue, target > (current?.intValue ?? 0),
                      existing != nil || target > 0 else { return nil }
                record[key] = JSON(target)
            default:
                throw .invalidRecord(position: position, reason: "'\(key)': unknown _operation '\(operation)'")
            }
        }
        return record
    }

    private static func operation(in value: JSON) -> (String, JSON)? {
        guard case .object(let object) = value, object.count == 2,
              case .string(let name)? = object["_operation"], let operand = object["value"] else { return nil }
        return (name, operand)
    }

    private static func elements(_ value: JSON?) -> [JSON] {
        switch value {
        case nil, .null?: []
        case .array(let list)?: list
        case let other?: [other]
        }
    }

    private static func add(_ current: JSON, _ operand: JSON, sign: Int64, position: String, key: String) throws(BackendError) -> JSON {
        switch (current, operand) {
        case (.int(let a), .int(let b)):
            let (product, overflow1) = b.multipliedReportingOverflow(by: sign)
            let (sum, overflow2) = a.addingReportingOverflow(product)
            return overflow1 || overflow2 ? .double(Double(a) + Double(sign) * Double(b)) : .int(sum)
        default:
            guard let a = current.doubleValue, let b = operand.doubleValue else {
                throw .invalidRecord(position: position, reason: "'\(key)': Increment/Decrement need numbers")
            }
            return .double(a + Double(sign) * b)
        }
    }
}
