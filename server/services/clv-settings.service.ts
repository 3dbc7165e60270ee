import type { ClvFit, ClvSettingsUpdate, ClvStatus } from '../../src/schemas/clv.js';
import type { CompanyId, Database, Sql } from '../db/database.js';
import { findClvJobState, requestClvJob } from '../repositories/clv-jobs.repository.js';
import {
  findClvFit,
  findClvSettings,
  updateClvSettings,
  type ClvFitRow,
} from '../repositories/clv.repository.js';
import type { WriteScope } from '../repositories/scope.js';

/** The company's CLV settings and fit (`/customers/clv/`). */
export interface ClvSettingsService {
  /** The settings, the latest fit and whether a refresh waits or runs. */
  status(companyId: CompanyId): Promise<ClvStatus>;
  /** Changes the horizon and discount rate and asks for a refit with them (nothing when they are the same). */
  update(scope: WriteScope, settings: ClvSettingsUpdate): Promise<ClvStatus>;
}

function presentFit(row: ClvFitRow): ClvFit {
  return {
    method: row.method,
    calibration_end: row.calibration_end,
    guests: row.guests,
    repeat_guests: row.repeat_guests,
    parameters:
      row.method === 'model'
        ? {
            r: row.r!,
            alpha: row.alpha!,
            a: row.a!,
            b: row.b!,
            log_likelihood: row.log_likelihood!,
            p: row.p!,
            q: row.q!,
            gamma: row.gamma!,
          }
        : null,
    horizon_years: Number(row.horizon_years),
    discount_rate: Number(row.discount_rate),
    fitted_at: new Date(row.fitted_at).toISOString(),
  };
}

async function readStatus(sql: Sql, companyId: CompanyId): Promise<ClvStatus> {
  const settings = await findClvSettings(sql, companyId);
  const fit = await findClvFit(sql, companyId);
  return {
    horizon_years: Number(settings!.clv_horizon_years),
    discount_rate: Number(settings!.clv_discount_rate),
    fit: fit && presentFit(fit),
    refresh: await findClvJobState(sql, companyId),
  };
}

/** The CLV settings service over a database. */
export function clvSettingsService(db: Database): ClvSettingsService {
  return {
    status(companyId) {
      return db.tenant(companyId, (sql) => readStatus(sql, companyId));
    },
    update(scope, settings) {
      // Only the platform door may write a company's row (its policy); every statement here names the company.
      return db.platform(async (sql) => {
        const before = (await findClvSettings(sql, scope.companyId))!;
        const changed =
          Number(before.clv_horizon_years) !== settings.horizon_years ||
          Number(before.clv_discount_rate) !== settings.discount_rate;
        if (!changed) return readStatus(sql, scope.companyId);
        await updateClvSettings(sql, scope, {
          horizonYears: settings.horizon_years,
          discountRate: settings.discount_rate,
        });
        // The figures depend on the settings: they are refitted with the new ones.
        await requestClvJob(sql, scope.companyId, 'settings');
        return readStatus(sql, scope.companyId);
      });
    },
  };
}
