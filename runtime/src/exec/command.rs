//! Command hooks: `sh -c` (`cmd /C` on Windows) with the input on stdin, a
//! timeout that kills the whole process group, and bounded output.
