using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <summary>Saved benchmark definitions: validated before anything is stored.</summary>
public sealed class BenchmarkStore(BenchDbContext db, BenchmarkKinds kinds, TimeProvider time, Microsoft.Extensions.Options.IOptions<RunLimits> limits, Security.TargetPolicy policy)
{
    public Task<List<Benchmark>> ListAsync(CancellationToken ct) =>
        db.Benchmarks.AsNoTracking().OrderBy(b => b.Name).ToListAsync(ct);

    /// <summary>Each benchmark's newest run (the highest id, so queued last), for the list's "last run".</summary>
    public async Task<Dictionary<int, Runs.Run>> LatestRunsAsync(CancellationToken ct)
    {
        var newest = db.Runs.Where(r => r.BenchmarkId != null).GroupBy(r => r.BenchmarkId).Select(g => g.Max(r => r.Id));
        return await db.Runs.AsNoTracking().Where(r => newest.Contains(r.Id)).ToDictionaryAsync(r => r.BenchmarkId!.Value, ct);
    }

    public Task<Benchmark?> FindAsync(int id, CancellationToken ct) =>
        db.Benchmarks.AsNoTracking().FirstOrDefaultAsync(b => b.Id == id, ct);

    /// <summary>Creates (id null) or updates a benchmark; returns field errors and stores nothing if any.</summary>
    /// <param name="parameters">Any registered kind's parameters record; the kind follows from its type.</param>
    /// <param name="thresholds">Pass/fail limits and the change rule's settings; null leaves them as they are.</param>
    /// <param name="agents">Its runs spread over this many runner agents; null: the dashboard's own runner.</param>
    /// <param name="onEach">Or its runs run the whole workload on each of these agents in turn.</param>
    /// <param name="timeZone">The IANA zone its schedule is read in; null keeps the stored one (UTC for a new benchmark), empty means UTC.</param>
    /// <param name="webhookUrls">Where its failing runs are announced; null keeps the stored ones, empty removes them.</param>
    public async Task<(Benchmark? Saved, Dictionary<string, string[]> Errors)> SaveAsync(
        int? id, string name, object parameters, string? cron, bool enabled, CancellationToken ct, Thresholds? thresholds = null, int? agents = null, string? timeZone = null,
        IEnumerable<string>? webhookUrls = null, Agents.OnEach? onEach = null)
    {
        var (benchmark, errors, renamed) = await PrepareAsync(id, name, parameters, cron, enabled, ct, thresholds, agents, timeZone, webhookUrls, onEach);
        if (benchmark is null) return (null, errors);
        // Its runs carry its name (kept when it is deleted): a rename reaches them in the same transaction.
        await using var transaction = renamed && db.Database.CurrentTransaction is null ? await db.Database.BeginTransactionAsync(ct) : null;
        if (await SaveChangesAsync(ct) is { } taken) return (null, taken);
        if (renamed) await db.Runs.Where(r => r.BenchmarkId == benchmark.Id).ExecuteUpdateAsync(set => set.SetProperty(r => r.BenchmarkName, benchmark.Name), ct);
        if (transaction is not null) await transaction.CommitAsync(ct);
        return (benchmark, errors);
    }

    /// <summary>Writes what <see cref="PrepareAsync"/> prepared; a name another request took meanwhile is the name's error.</summary>
    internal async Task<Dictionary<string, string[]>?> SaveChangesAsync(CancellationToken ct)
    {
        try
        {
            await db.SaveChangesAsync(ct);
            return null;
        }
        catch (DbUpdateException ex) when (Data.StorageFault.IsUniqueViolation(ex))
        {
            db.ChangeTracker.Clear();
            return new() { ["name"] = [NameTaken] };
        }
    }

    /// <summary>
    /// Validates a benchmark and puts it in the context (added, or loaded and changed) without writing anything: the
    /// caller saves (<see cref="SaveChangesAsync"/>), or clears the context to drop it. Returns field errors and no
    /// benchmark when any; <c>Renamed</c> when an existing benchmark's name changes.
    /// </summary>
    internal async Task<(Benchmark? Pending, Dictionary<string, string[]> Errors, bool Renamed)> PrepareAsync(
        int? id, string name, object parameters, string? cron, bool enabled, CancellationToken ct, Thresholds? thresholds = null, int? agents = null, string? timeZone = null,
        IEnumerable<string>? webhookUrls = null, Agents.OnEach? onEach = null)
    {
        var kind = kinds.For(parameters.GetType());
        var errors = await kind.ValidateAsync(parameters, ct);
        if (onEach is not null) Agents.OnEachField.Validate(errors, onEach, agents, kind, parameters, limits.Value);
        else Agents.AgentsField.Validate(errors, kind, parameters, agents, limits.Value);
        List<string>? hooks = null;
        if (webhookUrls is not null)
        {
            (hooks, var refused) = await Notifications.WebhookUrls.ValidateAsync(webhookUrls, policy, ct);
            if (refused is not null) errors["webhookUrls"] = [refused];
        }
        // Serialized only once valid (an invalid value such as NaN may not be serializable); with errors nothing is stored.
        var parametersJson = errors.Count > 0 ? "" : Json.Serialize(parameters);

        foreach (var (field, messages) in thresholds?.Validate() ?? []) errors[field] = messages;
        name = Text.Names.Normalize(name ?? ""); // a form posts no value at all for an empty field
        if (name.Length is 0 or > 200) errors["name"] = ["Enter a name of 1 to 200 characters."];
        else if (Text.Names.Refusal(name) is { } refusedName) errors["name"] = [refusedName];
        else if (await db.Benchmarks.AnyAsync(b => b.Name == name && b.Id != id, ct)) errors["name"] = [NameTaken];
        cron = string.IsNullOrWhiteSpace(cron) ? null : cron.Trim();
        if (cron is { Length: > 100 }) errors["cronSchedule"] = ["Enter a cron expression of at most 100 characters."];
        else if (cron is not null && CronSchedules.Parse(cron, out var cronError) is null) errors["cronSchedule"] = [cronError!];
        timeZone = timeZone?.Trim() is { Length: 0 } ? CronSchedules.DefaultTimeZone : timeZone?.Trim();
        if (timeZone is not null && CronSchedules.FindZone(timeZone) is null)
            errors["timeZone"] = [$"Unknown time zone '{(timeZone.Length > 64 ? timeZone[..64] + "…" : timeZone)}': enter an IANA name such as UTC, Europe/Berlin or America/New_York."];
        if (errors.Count > 0) return (null, errors, false);

        var now = time.GetUtcNow().ToUnixTimeMilliseconds();
        Benchmark? benchmark;
        if (id is { } existing)
        {
            benchmark = await db.Benchmarks.FirstOrDefaultAsync(b => b.Id == existing, ct);
            if (benchmark is null) return (null, new() { ["id"] = ["No such benchmark."] }, false);
            // Its runs were all of one kind; a different kind is a different benchmark.
            if (benchmark.Kind != kind.Name) return (null, new() { ["kind"] = [$"This is a {kinds.Find(benchmark.Kind)?.Title ?? benchmark.Kind} benchmark; its kind cannot change. Create a new benchmark instead."] }, false);
        }
        else
        {
            benchmark = new Benchmark { Name = name, Kind = kind.Name, ParametersJson = "{}", CreatedUtcMs = now };
            db.Benchmarks.Add(benchmark);
        }
        var renamed = id is not null && benchmark.Name != name;
        benchmark.Name = name;
        benchmark.Kind = kind.Name;
        benchmark.ParametersJson = parametersJson;
        timeZone ??= benchmark.TimeZone;
        if (benchmark.CronSchedule != cron || benchmark.TimeZone != timeZone) benchmark.LastScheduledUtcMs = now; // a new schedule starts from now
        benchmark.CronSchedule = cron;
        benchmark.TimeZone = timeZone;
        benchmark.Enabled = enabled;
        benchmark.Agents = agents;
        benchmark.OnEachJson = onEach?.ToJson();
        if (hooks is not null) benchmark.WebhookUrls = hooks;
        if (thresholds is not null) benchmark.ThresholdsJson = thresholds == Thresholds.None ? null : Json.Serialize(thresholds);
        return (benchmark, errors, renamed);
    }

    const string NameTaken = "A benchmark with this name exists.";

    public async Task<bool> SetEnabledAsync(int id, bool enabled, CancellationToken ct)
    {
        var benchmark = await db.Benchmarks.FirstOrDefaultAsync(b => b.Id == id, ct);
        if (benchmark is null) return false;
        benchmark.Enabled = enabled;
        await db.SaveChangesAsync(ct);
        return true;
    }
}
