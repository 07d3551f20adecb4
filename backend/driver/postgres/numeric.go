package postgres

// numericDigits says whether a column of base type typname (an array's element type) holds
// exact decimals, and the digits its type modifier declares (driver.Column's Exact, Precision
// and Scale): an export keeps numeric's every digit only when the column says it is exact.
// numeric's typmod is ((precision << 16) | scale) + 4, the scale an 11-bit signed number
// (PostgreSQL 15 allows -1000 to 1000), and -1 when nothing is declared.
func numericDigits(typname string, typmod int32) (exact bool, precision, scale int) {
	if typname != "numeric" {
		return false, 0, 0
	}
	if typmod < 4 {
		return true, 0, 0
	}
	m := typmod - 4
	return true, int(m>>16) & 0xffff, int((m&0x7ff)^1024) - 1024
}
