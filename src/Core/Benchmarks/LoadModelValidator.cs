namespace BenchDashboard.Core.Benchmarks;

/// <summary>Checks the load-model fields (<see cref="ILoadParameters"/>) the same way for every kind; errors are keyed by the API's field names.</summary>
public static class LoadModelValidator
{
    public const double MaxRate = 1_000_000;
    public const int MaxStages = 100;

    /// <summary>Whether the run's length comes from its stages, so that neither requests nor durationSeconds is set.</summary>
    public static bool LastsAsItsStages(ILoadParameters p) => p.Model == LoadModel.Open && p.Stages is { Count: > 0 };

    /// <summary>
    /// What a reader should know before a run starts that is not an error: a closed run that may pass the sample
    /// budget (a duration cannot know how many samples it will make; a count with its warm-up can be larger than
    /// the budget) stops at the budget if it gets there first.
    /// </summary>
    /// <param name="planned">The kind's planned load (<see cref="IBenchmarkKind.Planned"/>), phases included.</param>
    public static IReadOnlyList<string> Notices(object parameters, PlannedLoad? planned, RunLimits limits)
    {
        if (parameters is not ILoadParameters { Model: LoadModel.Closed } p) return [];
        if (p.DurationSeconds is { } seconds)
            return [$"This run lasts {seconds:N0} s unless it reaches {limits.MaxSamplesPerRun:N0} samples first (RunLimits:MaxSamplesPerRun): then it stops there, completed, and says so."];
        var samples = (planned?.Operations ?? 0) + (long)p.WarmupRequests * p.OperationsPerRequest;
        return samples > limits.MaxSamplesPerRun
            ? [$"This run asks for about {samples:N0} samples, warm-up included; a run stores at most {limits.MaxSamplesPerRun:N0} (RunLimits:MaxSamplesPerRun): it stops there, completed, and says so."]
            : [];
    }

    /// <param name="repeats">How many times the profile runs (once per cache phase, say), for the run limits.</param>
    public static void Validate(ILoadParameters p, RunLimits limits, int repeats, Action<string, string> add)
    {
        if (!Enum.IsDefined(p.Model)) add("model", "The model is \"closed\" or \"open\".");
        if (p.Model != LoadModel.Open)
        {
            if (p.Rate is not null) add("rate", "A rate belongs to the open model: set \"model\": \"open\" too.");
            if (p.Stages is { Count: > 0 }) add("stages", "Stages belong to the open model: set \"model\": \"open\" too.");
            return;
        }

        var errors = 0;
        void Error(string field, string message) { errors++; add(field, message); }
        if (p.Rate is not { } rate) Error("rate", "An open run needs a rate: operations per second (with stages, the rate they start from).");
        else if (!double.IsFinite(rate) || rate < 0 || rate > MaxRate) Error("rate", $"The rate must be between 0 and {MaxRate:N0} per second.");
        else if (rate == 0 && !LastsAsItsStages(p)) Error("rate", "The rate must be above 0 (or ramp up from 0 with stages).");
        if (p.Stages is { Count: > 0 } stages)
        {
            if (p.Requests is not null || p.DurationSeconds is not null)
                Error("stages", "With stages the run lasts as long as they do: leave out requests and durationSeconds.");
            if (stages.Count > MaxStages) Error("stages", $"At most {MaxStages} stages.");
            for (var i = 0; i < stages.Count && i < MaxStages; i++)
            {
                if (stages[i] is null) { Error($"stages[{i}]", "A stage is {\"durationSeconds\": …, \"rate\": …}."); continue; }
                if (!double.IsFinite(stages[i].DurationSeconds) || stages[i].DurationSeconds < 0)
                    Error($"stages[{i}].durationSeconds", "A stage lasts 0 seconds (a step) or more.");
                if (!double.IsFinite(stages[i].Rate) || stages[i].Rate < 0 || stages[i].Rate > MaxRate)
                    Error($"stages[{i}].rate", $"A stage's rate is between 0 and {MaxRate:N0} per second.");
            }
        }
        if (errors > 0 || LoadProfile.Of(p) is not { } profile) return;

        // The kind checks the field that was set against its own limit; the schedule adds the other one
        // (a count at a low rate can last for hours, a duration at a high rate can hold millions).
        var field = LastsAsItsStages(p) ? "stages" : p.DurationSeconds is not null ? "durationSeconds" : "requests";
        if (profile.DurationNs <= 0 || profile.Operations == 0)
            add(field, "That schedule has no operation in it.");
        else if (field != "durationSeconds" && (double)profile.DurationNs / 1e9 * repeats > limits.MaxDurationSeconds)
            add(field, $"That schedule lasts {profile.DurationNs / 1e9 * repeats:N0} s; at most {limits.MaxDurationSeconds:N0} s (RunLimits:MaxDurationSeconds).");
        else if (field != "requests" && profile.Operations * repeats > limits.MaxRequests)
            add(field, $"That schedule has {profile.Operations * repeats:N0} operations; at most {limits.MaxRequests:N0} (RunLimits:MaxRequests).");
        else if (profile.Operations * repeats > limits.MaxSamplesPerRun)
            add(field, $"That schedule has {profile.Operations * repeats:N0} operations; a run stores at most {limits.MaxSamplesPerRun:N0} samples (RunLimits:MaxSamplesPerRun).");
    }
}
