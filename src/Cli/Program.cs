using BenchDashboard.Cli;

// benchdash: runs, compares, exports and imports benchmarks on a BenchDashboard from a shell or a pipeline.
return await Benchdash.InvokeAsync(args, Terminal.FromConsole());
