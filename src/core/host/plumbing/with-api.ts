import type { DeskResult } from '../../../shared/bridge';
import type { ApiClient, ApiResult } from '../../api/api-client';

/** Runs an API call for the signed-in person, or says plainly why it can't (see ActiveConnection). */
export type WithApi = <T>(run: (api: ApiClient) => Promise<ApiResult<T>>) => Promise<DeskResult<T>>;
