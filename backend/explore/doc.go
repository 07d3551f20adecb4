// Package explore is the data explorer's logic over an open connection's driver, free of the
// window: checking page, filter and commit requests before the database is asked, reading a
// refused filter back from the driver's sentence, cells as display text, counting tables a
// few at a time, the kept tenant listings and their windows, pairing a commit's rows with the
// driver's outcomes, the vector a row is searched by, and the questions the window asks
// before a delete, a tenant change or a quit. The Wails facade (app.ExplorerAPI) converts its
// types to the frontend's; the CLI and other front ends may use it as they are.
package explore
