// \(placeholder) module QuarryFilters
