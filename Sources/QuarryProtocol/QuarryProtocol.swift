// \(placeholder) module QuarryProtocol
