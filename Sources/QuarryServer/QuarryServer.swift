// \(placeholder) module QuarryServer
