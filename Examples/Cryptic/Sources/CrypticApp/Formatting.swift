import Foundation

/// `$67,012.45`, or four decimals below one dollar (`$0.1612`).
func dollars(_ amount: Double) -> String {
    let decimals = amount < 1 ? 4 : 2
    let text = String(format: "%.\(decimals)f", amount)
    let point = text.firstIndex(of: ".") ?? text.endIndex
    return "$" + groupingThousands(String(text[..<point])) + text[point...]
}

/// `$1.32T`, `$415.23B`, `$8.54M`.
func abbreviatedDollars(_ amount: Double) -> String {
    let units: [(suffix: String, size: Double)] = [("T", 1e12), ("B", 1e9), ("M", 1e6)]
    guard let unit = units.first(where: { amount >= $0.size }) else { return dollars(amount) }
    return "$" + String(format: "%.2f", amount / unit.size) + unit.suffix
}

/// `+1.84%`, `-0.73%`.
func percentChange(_ percent: Double) -> String {
    String(format: "%+.2f%%", percent)
}

private func groupingThousands(_ digits: String) -> String {
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
        let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
        groups.insert(digits[start..<end], at: 0)
        end = start
    }
    return groups.joined(separator: ",")
}

/// A plain-text table with padded columns.
struct Table: CustomStringConvertible {
    var header: [String]
    /// The indices of the columns aligned to the right (numbers).
    var rightAligned: Set<Int>
    var rows: [[String]]

    var description: String {
        let lines = [header] + rows
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { cells in
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
            .trimmingSuffix()
        }
        .joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
