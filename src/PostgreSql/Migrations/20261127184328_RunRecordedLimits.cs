using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.PostgreSql.Migrations
{
    /// <inheritdoc />
    public partial class RunRecordedLimits : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "LimitsJson",
                table: "Runs",
                type: "text",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "LimitsJson",
                table: "Runs");
        }
    }
}
