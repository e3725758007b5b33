using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    /// <inheritdoc />
    public partial class BenchmarkWebhooks : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<long>(
                name: "WebhooksCheckedUtcMs",
                table: "Runs",
                type: "INTEGER",
                nullable: true);

            // Runs that ended before webhooks existed are judged already: adding a URL later announces no old failure.
            migrationBuilder.Sql("UPDATE \"Runs\" SET \"WebhooksCheckedUtcMs\" = COALESCE(\"EndedUtcMs\", \"QueuedUtcMs\") WHERE \"Status\" NOT IN ('Queued', 'Running');");

            migrationBuilder.AddColumn<string>(
                name: "WebhookUrls",
                table: "Benchmarks",
                type: "TEXT",
                nullable: false,
                defaultValueSql: "'[]'");

            migrationBuilder.CreateTable(
                name: "WebhookDeliveries",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    RunId = table.Column<long>(type: "INTEGER", nullable: false),
                    Url = table.Column<string>(type: "TEXT", maxLength: 2000, nullable: false),
                    Event = table.Column<string>(type: "TEXT", maxLength: 32, nullable: false),
                    PayloadJson = table.Column<string>(type: "TEXT", nullable: false),
                    Status = table.Column<string>(type: "TEXT", maxLength: 16, nullable: false),
                    Attempts = table.Column<int>(type: "INTEGER", nullable: false),
                    CreatedUtcMs = table.Column<long>(type: "INTEGER", nullable: false),
                    NextAttemptUtcMs = table.Column<long>(type: "INTEGER", nullable: false),
                    LastAttemptUtcMs = table.Column<long>(type: "INTEGER", nullable: true),
                    LastStatusCode = table.Column<int>(type: "INTEGER", nullable: true),
                    LastError = table.Column<string>(type: "TEXT", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_WebhookDeliveries", x => x.Id);
                    table.ForeignKey(
                        name: "FK_WebhookDeliveries_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "IX_Runs_WebhooksCheckedUtcMs",
                table: "Runs",
                column: "WebhooksCheckedUtcMs",
                filter: "\"WebhooksCheckedUtcMs\" IS NULL");

            migrationBuilder.CreateIndex(
                name: "IX_WebhookDeliveries_RunId",
                table: "WebhookDeliveries",
                column: "RunId");

            migrationBuilder.CreateIndex(
                name: "IX_WebhookDeliveries_Status_NextAttemptUtcMs",
                table: "WebhookDeliveries",
                columns: new[] { "Status", "NextAttemptUtcMs" });
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "WebhookDeliveries");

            migrationBuilder.DropIndex(
                name: "IX_Runs_WebhooksCheckedUtcMs",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "WebhooksCheckedUtcMs",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "WebhookUrls",
                table: "Benchmarks");
        }
    }
}
