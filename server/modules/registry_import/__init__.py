"""Import of an existing municipal registry from a spreadsheet (CSV or XLSX): template, dry run that names row, column and article, then the atomic import."""
