// \(placeholder) module QuarryTransport
