using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NCrontab;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>Saved benchmark definitions: validated before anything is stored.</summary>
public sealed class BenchmarkStore(BenchDbContext db, IOptions<RunLimits> limits, TimeProvider time)
{
    public Task<List<Benchmark>> ListAsync(CancellationToken ct) =>
        db.Benchmarks.AsNoTracking().OrderBy(b => b.Name).ToListAsync(ct);

    public Task<Benchmark?> FindAsync(int id, CancellationToken ct) =>
        db.Benchmarks.AsNoTracking().FirstOrDefaultAsync(b => b.Id == id, ct);

    /// <summary>Creates (id null) or updates a benchmark; returns field errors and stores nothing if any.</summary>
    public async Task<(Benchmark? Saved, Dictionary<string, string[]> Errors)> SaveHttpAsync(
        int? id, string name, HttpParameters parameters, string? cron, bool enabled, CancellationToken ct)
    {
        var errors = HttpParametersValidator.Validate(parameters, limits.Value);
        name = name.Trim();
        if (name.Length is 0 or > 200) errors["name"] = ["Enter a name of 1 to 200 characters."];
        else if (await db.Benchmarks.AnyAsync(b => b.Name == name && b.Id != id, ct)) errors["name"] = ["A benchmark with this name exists."];
        cron = string.IsNullOrWhiteSpace(cron) ? null : cron.Trim();
        if (cron is not null && CrontabSchedule.TryParse(cron) is null)
            errors["cronSchedule"] = ["Enter a five-field cron expression (minute hour day month weekday), e.g. */15 * * * *."];
        if (errors.Count > 0) return (null, errors);

        var now = time.GetUtcNow().ToUnixTimeMilliseconds();
        Benchmark? benchmark;
        if (id is { } existing)
        {
            benchmark = await db.Benchmarks.FirstOrDefaultAsync(b => b.Id == existing, ct);
            if (benchmark is null) return (null, new() { ["id"] = ["No such benchmark."] });
        }
        else
        {
            benchmark = new Benchmark { Name = name, ParametersJson = "{}", CreatedUtcMs = now };
            db.Benchmarks.Add(benchmark);
        }
        benchmark.Name = name;
        benchmark.Kind = BenchmarkKind.Http;
        benchmark.ParametersJson = Json.Serialize(parameters);
        if (benchmark.CronSchedule != cron) benchmark.LastScheduledUtcMs = now; // a new schedule starts from now
        benchmark.CronSchedule = cron;
        benchmark.Enabled = enabled;
        await db.SaveChangesAsync(ct);
        return (benchmark, errors);
    }

    public async Task<bool> SetEnabledAsync(int id, bool enabled, CancellationToken ct)
    {
        var benchmark = await db.Benchmarks.FirstOrDefaultAsync(b => b.Id == id, ct);
        if (benchmark is null) return false;
        benchmark.Enabled = enabled;
        await db.SaveChangesAsync(ct);
        return true;
    }
}
