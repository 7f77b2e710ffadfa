import Foundation
import RegistrationFlowApp

let result = run(arguments: Array(CommandLine.arguments.dropFirst()))
print(result.standardOutput, terminator: "")
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.status)
