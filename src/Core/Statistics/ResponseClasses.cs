namespace BenchDashboard.Core.Statistics;

/// <summary>go-wrk's and ab's response classes; <see cref="Errors"/> are requests that got no response at all.</summary>
public sealed record ResponseClasses(int Status1xx, int Status2xx, int Status3xx, int Status4xx, int Status5xx, int Errors);
