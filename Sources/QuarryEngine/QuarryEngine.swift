// \(placeholder) module QuarryEngine
